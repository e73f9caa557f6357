// Validates Kubernetes objects (a JSON array on stdin) against the schemas of kubernetes-models
// and prints the problems as JSON. A script of its own because the models are ES modules only,
// which jest's module system cannot load.
const MODULES = {
  'monitoring.coreos.com': (version) => `@kubernetes-models/prometheus-operator/monitoring.coreos.com/${version}`,
  'cert-manager.io': (version) => `@kubernetes-models/cert-manager/cert-manager.io/${version}`,
};

function moduleOf(apiVersion) {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  return MODULES[group]?.(version) ?? `kubernetes-models/${apiVersion}`;
}

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const objects = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const problems = [];
for (const object of objects) {
  const where = `${object.kind} ${object.metadata?.name}`;
  try {
    const Model = (await import(moduleOf(object.apiVersion)))[object.kind];
    if (!Model) throw new Error(`no model for ${object.apiVersion} ${object.kind}`);
    new Model(object).validate();
  } catch (error) {
    problems.push(`${where}: ${error.message}`);
  }
}
process.stdout.write(JSON.stringify(problems));
