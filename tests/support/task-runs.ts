// Reads the run log that the handlers in task-handlers.cjs append to: one JSON line per start and
// end of a run, so a test can tell which process ran which attempt of which task, and when.
import fs from 'node:fs';

export interface RunNote {
  event: 'start' | 'end';
  id: string;
  name: string;
  attempt: number;
  pid: number;
  at: number;
}

export const runsIn = (file: string): RunNote[] =>
  fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as RunNote)
    : [];
