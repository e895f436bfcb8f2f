/** Moved to @meter/device-reports, which the management API's fleet routes share. */
export { deviceVolumes, requestedUnit, X_UNIT_VALUES } from '@meter/device-reports';
