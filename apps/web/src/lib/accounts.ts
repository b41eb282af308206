/** Rules about the user's accounts shared by the account screens and the dashboard. */

/**
 * The account a screen works on: the preferred one (from the query or the dashboard's selection)
 * when the user has it, otherwise the first; null when the user has no account.
 */
export function pickAccount(accounts: readonly string[], ...preferred: (string | null | undefined)[]): string | null {
  for (const name of preferred) if (name && accounts.includes(name)) return name;
  return accounts[0] ?? null;
}

/** The name for a new account: trimmed; null (nothing is sent) when empty. */
export function newAccountName(input: string): string | null {
  const name = input.trim();
  return name === '' ? null : name;
}
