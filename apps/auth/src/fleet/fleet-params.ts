export const DEFAULT_FLEET_PAGE = 50;
export const MAX_FLEET_PAGE = 200;
