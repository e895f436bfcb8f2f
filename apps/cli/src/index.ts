/**
 * The CLI's public face: the use cases the platform runs from the command
 * line that the benchmarks and the tests run too. Everything else under
 * apps/cli/src is private to it.
 */
export { migrateAll } from './migrate/migrate-all';
export { SERVICE_STORES } from './migrate/service-stores';
export { seededRandom, simulatedMeter, simulatedReadings, type MeterAnomaly, type SimulatedMeter } from './simulator/simulated-meter';
export {
  plannedReadings,
  publishSimulatedMeters,
  type PublishProgress,
  type SimulationPlan,
  type SimulationSummary,
} from './simulator/publish-simulated-meters';
