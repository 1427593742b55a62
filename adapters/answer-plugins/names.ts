/** The plug-ins' names alone, for the configuration (which should not load the plug-ins to validate a setting). */
export const ANSWER_PLUGIN_NAMES: readonly string[] = ['receipts', 'financial-statements'];

/**
 * On by default: the financial-statement plug-in lifts the FinanceBench figures and leaves prose questions alone; the
 * receipts one answers what was paid from a receipt's total line, and only where a passage reads as a receipt.
 */
export const DEFAULT_ANSWER_PLUGINS: readonly string[] = ['receipts', 'financial-statements'];
