/** Moved to @meter/device-reports, which the management API's fleet routes share. */
export { parseDeviceId, requestedZone } from '@meter/device-reports';
