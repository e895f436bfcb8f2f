import { Command } from 'commander';
import type { SimulateFlags } from '../simulator/simulate';
import { action } from '../usage';

/** Publishes device registrations, then realistic cumulative readings ending now, as collectors would. */
export const simulateCommand = () =>
  new Command('simulate')
    .description('publish simulated meters and their readings (device registrations, then readings in batches) to NATS; progress on stderr')
    .requiredOption('--org <org-id>', 'organization id the meters belong to')
    .option('--meters <n>', 'how many meters', '10')
    .option('--days <d>', 'days of readings, ending now', '100')
    .option('--interval <duration>', 'time between readings: minutes or hours such as 15m or 1h', '1h')
    .option('--first-id <id>', 'device id of the first meter; the others follow it', '1')
    .option('--time-zone <iana>', "the meters' time zone", 'Europe/Madrid')
    .option('--per-message <n>', 'readings per message', '100')
    .option('--seed <n>', 'seed of the simulated consumption (the same seed, the same readings)', '1')
    .option('--leak <n>', 'how many meters (from the first) leak: a continuous flow over the last 36 hours (a LEAK alert)', '0')
    .option('--burst <n>', 'how many meters (after the leaking ones) burst: 2 units an hour in the last hour, above the threshold they register (BURST)', '0')
    .option('--silent <n>', 'how many meters (after those) go silent 3 days before now (NO_COMMUNICATION)', '0')
    .action(action(async (flags: SimulateFlags) => (await import('../simulator/simulate')).simulate(flags)));
