import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

// nginx as the reference reverse proxy of the gateway rows (Debian's nginx-light): one worker,
// as the gateway is one process, keep-alive connections to the upstream, no access log.

const NGINX = '/usr/sbin/nginx';
export const nginxInstalled = (): boolean => fs.existsSync(NGINX);

export interface NginxProxy {
  url: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

function configuration(directory: string, port: number, upstream: URL, headers: Record<string, string>): string {
  const setHeaders = Object.entries(headers)
    .map(([name, value]) => `      proxy_set_header ${name} "${value}";`)
    .join('\n');
  return `worker_processes 1;
daemon off;
master_process off;
pid ${directory}/nginx.pid;
error_log ${directory}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${directory}/body;
  proxy_temp_path ${directory}/proxy;
  fastcgi_temp_path ${directory}/fastcgi;
  uwsgi_temp_path ${directory}/uwsgi;
  scgi_temp_path ${directory}/scgi;
  upstream service { server ${upstream.host}; keepalive 256; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://service;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
${setHeaders}
    }
  }
}
`;
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** nginx proxying 127.0.0.1:`port` to `upstream`, setting `headers` on every request it forwards. */
export async function startNginxProxy(port: number, upstream: string, headers: Record<string, string> = {}): Promise<NginxProxy> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-nginx-'));
  fs.writeFileSync(path.join(directory, 'nginx.conf'), configuration(directory, port, new URL(upstream), headers));
  const child: ChildProcess = spawn(NGINX, ['-p', directory, '-c', path.join(directory, 'nginx.conf')], { stdio: 'ignore' });
  const deadline = Date.now() + 5_000;
  while (!(await listening(port))) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`nginx did not start (see ${directory}/error.log)`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGQUIT');
      await exited;
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
