/** Moved to @meter/device-reports, which the management API's fleet routes share. */
export { projectionBody } from '@meter/device-reports';
