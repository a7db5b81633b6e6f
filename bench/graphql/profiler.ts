// Loaded with `node --require` into a server under test (graphql and subscribers suites), so a
// profile covers only the window the benchmark chooses (node --cpu-prof would include start-up).
// Each SIGUSR2 runs the command in BENCH_PROFILE_DIR/command (default `profile loaded`):
// `profile <label>` starts V8's CPU profiler (writing `started`) or stops it and writes
// <label>.cpuprofile; `memory <label> [snapshot]` collects garbage and writes process.memoryUsage()
// before and after to <label>.json (and a heap snapshot).
import fs from 'node:fs';
import inspector from 'node:inspector';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';

const dir = process.env.BENCH_PROFILE_DIR;
if (dir) {
  const session = new inspector.Session();
  session.connect();
  let running = false;
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const write = (file: string, text: string): void => {
    fs.writeFileSync(`${file}.part`, text);
    fs.renameSync(`${file}.part`, file);
  };
  process.on('SIGUSR2', () => {
    const commandFile = path.join(dir, 'command');
    const command = fs.existsSync(commandFile) ? fs.readFileSync(commandFile, 'utf8') : 'profile loaded';
    const [verb, label = 'profile', snapshot] = command.trim().split(' ');
    if (verb === 'profile' && !running) {
      running = true;
      session.post('Profiler.enable', () =>
        session.post('Profiler.start', () => fs.writeFileSync(path.join(dir, 'started'), '')),
      );
    } else if (verb === 'profile') {
      running = false;
      session.post('Profiler.stop', (error, result) => {
        if (error) throw error;
        write(path.join(dir, `${label}.cpuprofile`), JSON.stringify(result.profile));
      });
    } else if (verb === 'memory') {
      const before = process.memoryUsage();
      gc();
      write(path.join(dir, `${label}.json`), JSON.stringify({ before, after: process.memoryUsage() }, null, 2));
      if (snapshot === 'snapshot') v8.writeHeapSnapshot(path.join(dir, `${label}.heapsnapshot`));
    }
  });
}
