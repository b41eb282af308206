/**
 * Hands a downloaded file to the browser under its name (earnings_2025-02.pdf, earnings.csv,
 * payments.csv). An object URL and a temporary link: the strict CSP allows both, and the URL is
 * released once the browser has taken the file.
 */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
