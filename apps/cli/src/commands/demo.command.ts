import { Command } from 'commander';
import { action } from '../usage';

/** `npm run demo`: on a running platform, a demo organization, its keys, simulated meters, then a signed request and its answer. */
export const demoCommand = () =>
  new Command('demo')
    .description('on a running platform (npm start): demo organization and keys, simulated meters, then a signed request and its answer')
    .option('--gateway-url <url>', 'the gateway (default http://127.0.0.1:$GATEWAY_PORT)')
    .option('--management-url <url>', 'the management API (default http://127.0.0.1:$AUTH_PORT)')
    .action(
      action(async (options: { gatewayUrl?: string; managementUrl?: string }) => {
        const [{ loadConfig }, { runDemo }] = await Promise.all([import('@meter/config'), import('../demo/run-demo')]);
        const config = loadConfig();
        await runDemo(config, {
          gatewayUrl: options.gatewayUrl ?? `http://127.0.0.1:${config.GATEWAY_PORT}`,
          managementUrl: options.managementUrl ?? `http://127.0.0.1:${config.AUTH_PORT}`,
        });
      }),
    );
