/** Moved to @meter/device-reports, which the management API's fleet routes share. */
export { notOneValue, parseDeviceId, parseDeviceIdList, requestedZone } from '@meter/device-reports';
