export const policyConfigSpec = {};
