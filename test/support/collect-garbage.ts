import v8 from 'node:v8';
import vm from 'node:vm';

// A full collection on demand, to see whether anything still reaches an object (the flag applies to new contexts).
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** Runs full garbage collections, with turns of the event loop between them (finalizers, pending callbacks). */
export async function collectGarbage(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
}
