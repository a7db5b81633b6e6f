// Preloaded into the product server (`--require`) when the subscribers benchmark runs with
// BENCH_SERVER_PROFILE=<dir>, to see where the server's time and memory go. On each SIGUSR2 it
// runs the command in <dir>/command: `profile <label>` starts V8's CPU profiler or, when it runs,
// stops it and writes <dir>/<label>.cpuprofile; `memory <label> [snapshot]` collects garbage and
// writes process.memoryUsage() before and after to <dir>/<label>.json (and a heap snapshot).
import fs from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';

const dir = process.env.SUBSCRIBERS_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  let profiling = false;
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  process.on('SIGUSR2', () => {
    const [command, label = 'profile', snapshot] = fs.readFileSync(path.join(dir, 'command'), 'utf8').trim().split(' ');
    if (command === 'profile' && !profiling) {
      profiling = true;
      session.post('Profiler.enable', () => session.post('Profiler.start'));
    } else if (command === 'profile') {
      profiling = false;
      session.post('Profiler.stop', (error, result) => {
        if (!error) fs.writeFileSync(path.join(dir, `${label}.cpuprofile`), JSON.stringify(result.profile));
      });
    } else if (command === 'memory') {
      const before = process.memoryUsage();
      gc();
      const after = process.memoryUsage();
      fs.writeFileSync(path.join(dir, `${label}.json`), JSON.stringify({ before, after }, null, 2));
      if (snapshot === 'snapshot') v8.writeHeapSnapshot(path.join(dir, `${label}.heapsnapshot`));
    }
  });
}
