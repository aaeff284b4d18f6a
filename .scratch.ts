import { parseDocument, LineCounter } from 'yaml';
import { randomBytes } from 'node:crypto';
function run(name: string, text: string) {
  const t = performance.now();
  try {
    const doc = parseDocument(text, { lineCounter: new LineCounter() });
    const t2 = performance.now();
    console.log(name, (text.length/1e6).toFixed(1)+'MB', 'parse', (t2-t).toFixed(0), 'errors', doc.errors.length, doc.errors[0]?.message.split('\n')[0], 'mem', (process.memoryUsage().rss/1e6).toFixed(0));
  } catch (e) { console.log(name, 'threw', (e as Error).message.slice(0,100), (performance.now()-t).toFixed(0)); }
}
run('rows', 'hits:\n' + '- 1\n'.repeat(5_000_000));
run('printable', 'hits:\n' + randomBytes(20_000_000).toString('base64'));
run('brackets', 'hits: ' + '['.repeat(1_000_000));
run('braces', 'hits: ' + '{a: '.repeat(200_000));
run('quote', 'hits: "' + 'a'.repeat(20_000_000));
run('lines', 'hits:\n' + 'x y z: a b c\n'.repeat(1_000_000));
