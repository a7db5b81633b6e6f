// Loaded with `node --require` into a server under test: SIGUSR2 starts V8's CPU profiler and the
// next SIGUSR2 stops it and writes BENCH_PROFILE_DIR/loaded.cpuprofile. The benchmark sends the
// signals around its measured window only, so the profile holds neither start-up nor warm-up
// (node --cpu-prof covers the whole process: start-up alone was about 12% of its samples).
import fs from 'node:fs';
import inspector from 'node:inspector';
import path from 'node:path';

const dir = process.env.BENCH_PROFILE_DIR;
if (dir) {
  const session = new inspector.Session();
  session.connect();
  let running = false;
  process.on('SIGUSR2', () => {
    if (!running) {
      running = true;
      session.post('Profiler.enable', () =>
        session.post('Profiler.start', () => fs.writeFileSync(path.join(dir, 'started'), '')),
      );
      return;
    }
    running = false;
    session.post('Profiler.stop', (error, result) => {
      if (error) throw error;
      const file = path.join(dir, 'loaded.cpuprofile');
      fs.writeFileSync(`${file}.part`, JSON.stringify(result.profile));
      fs.renameSync(`${file}.part`, file);
    });
  });
}
