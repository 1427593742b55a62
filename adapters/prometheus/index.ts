/** `doc-chat/adapters/prometheus`: the service's Prometheus series and the port decorators that feed them. */
export { ServiceMetrics } from './service-metrics.js';
export { countDependencyErrors, instrumentIndex, instrumentReader } from './instrumented-ports.js';
