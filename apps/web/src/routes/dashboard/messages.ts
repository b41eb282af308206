/**
 * The dashboard's messages. Those the spec quotes (sections 2, 4, 5 and 8) are here verbatim; the
 * rest cover what the spec leaves unshown.
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
  // Not quoted by the spec:
  createAccountFailed: 'An error occurred',
  downloadFailed: 'The download failed. Please try again.',
  removeFailed: 'The workers could not be removed. Please try again.',
  conversionSaveFailed: 'The conversion settings could not be saved.',
  addressRequired: 'Enter an address on every row, or remove the row.',
} as const;
