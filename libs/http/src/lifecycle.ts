export interface Stoppable {
  stop(): Promise<void>;
}

/**
 * Entry-point helper: starts the process and stops it once on SIGTERM or SIGINT (stop
 * accepting, finish in-flight work, close pools), then exits.
 */
export function runUntilSignal(name: string, start: () => Promise<Stoppable>): void {
  start().then(
    (running) => {
      let stopping = false;
      const stop = () => {
        if (stopping) return;
        stopping = true;
        running.stop().then(
          () => process.exit(0),
          (error: Error) => {
            process.stderr.write(`${name} did not stop cleanly: ${error.message}\n`);
            process.exit(1);
          },
        );
      };
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
    },
    (error: Error) => {
      process.stderr.write(`${name} failed to start: ${error.message}\n`);
      process.exit(1);
    },
  );
}
