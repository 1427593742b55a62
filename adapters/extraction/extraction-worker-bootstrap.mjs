// Entry of an extraction child process when the sources run as TypeScript under tsx (tests, `npm start`). The child
// is forked with an explicit, empty execArgv (the parent's flags, e.g. tsx's own loader or --inspect, are not
// inherited), so register tsx's loader here, then load the real entry named in the start data (argv[2], JSON).
// Plain JS on purpose: it must load before any TypeScript can. See startChild() in child-process-document-reader.ts.
import { register } from 'tsx/esm/api';

const { entry } = JSON.parse(process.argv[2]);
register();
await import(entry);
