/**
 * The dashboard's messages. The fixed texts are kept here word for word (docs/website.md, Forms and messages);
 * the rest are ours.
 */
export const MESSAGES = {
  missingPayout: 'You have not configured a payout address for: ',
  noTargetCoin: 'No target coin selected',
  conversionFailed: 'Error during coin conversion',
  selectOneCoin: 'You must select at least one coin before saving.',
  conversionSaved: 'Conversion saved successfully',
  payoutSaved: 'Settings saved successfully!',
  payoutFailed: 'Unexpected error occurred',
  noPdfData: 'No data received from the server.',
  // Ours:
  createAccountFailed: 'An error occurred',
  downloadFailed: 'The download failed. Please try again.',
  removeFailed: 'The workers could not be removed. Please try again.',
  labelFailed: 'The label could not be saved. Please try again.',
  conversionSaveFailed: 'The conversion settings could not be saved.',
  addressRequired: 'Enter an address on every row, or remove the row.',
} as const;
