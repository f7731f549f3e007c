// The offline verifier's functions, for tests and other programs (an end-to-end test, an auditor's script).
export { IntegrityApi, SourceError, buildExport, locateFirstDifference, verifyApi } from './api-source';
export type { ApiVerifyRequest, ExportRequest } from './api-source';
export { EXPORT_FORMAT, exportShapeProblem } from './export-file';
export type { ExportFile, ExportLeaf, ExportProof } from './export-file';
export { ExitCode, runVerify } from './main';
export { consistencyProblem, verifyExport } from './verify-export';
export type { FailureReason, VerificationFailure, VerificationReport, VerifyOptions } from './verify-export';
export { SyntheticLog, syntheticEvent } from './synthetic-log';
