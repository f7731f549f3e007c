export const POLICY_SCHEMA = 'policy';
