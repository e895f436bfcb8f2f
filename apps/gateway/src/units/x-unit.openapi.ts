import { requestedUnit } from '@meter/device-reports';
import { problemThrownBy, type ProblemExample } from '@meter/http';

export { consumptionHeaders, volumeUnitSchema, X_UNIT_SPELLINGS } from '@meter/device-reports';

export const INVALID_UNIT: ProblemExample = {
  summary: 'X-Unit: kWh',
  problem: problemThrownBy(() => requestedUnit('kWh')),
};
