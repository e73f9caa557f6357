import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(__dirname, '..', '..');

/** The files a tsconfig names (its include minus its exclude), as paths from the repository root. */
function filesOf(project: string): string[] {
  const configFile = ts.readConfigFile(project, ts.sys.readFile);
  if (configFile.error) throw new Error(ts.flattenDiagnosticMessageText(configFile.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(configFile.config, ts.sys, path.dirname(project));
  return parsed.fileNames.map((file) => path.relative(root, file));
}

/** The projects `npm run typecheck` hands to tsc (`-p <project>`). */
function typecheckedProjects(): string[] {
  const script: string = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.typecheck;
  return [...script.matchAll(/-p (\S+)/g)].map(([, project]) => {
    const full = path.join(root, project);
    return fs.statSync(full).isDirectory() ? path.join(full, 'tsconfig.json') : full;
  });
}

describe('npm run typecheck', () => {
  it("when the packages' own tsconfigs are read, then every file they name is in a program the typecheck script checks", () => {
    const packageProjects = execFileSync('git', ['ls-files', '*/tsconfig.json'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((file) => path.join(root, file));
    const checked = new Set(typecheckedProjects().flatMap(filesOf));
    const packageFiles = packageProjects.flatMap(filesOf);

    expect(packageProjects.length).toBeGreaterThan(20);
    expect(packageFiles.filter((file) => !checked.has(file))).toEqual([]);
  });
});
