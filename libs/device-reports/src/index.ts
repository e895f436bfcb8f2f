/**
 * A device's consumption answers (docs/consumption.md): daily history, three
 * months, month projection, with their schemas and the parameters they read.
 * The gateway's signed routes and the management API's fleet routes both
 * answer through `DeviceReports`, so their figures are the same to the digit.
 */
export * from './device-reports';
export * from './device-report-reader';
export * from './device-projection';
export * from './projection-body';
export * from './series-label';
export * from './request-params';
export * from './query-params';
export * from './x-unit';
export * from './schemas';
export * from './history.schemas';
export * from './projection.schemas';
