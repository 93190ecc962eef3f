/** Hands text to the browser as a file download, without a round trip through a server URL. */
export function saveFile(fileName: string, content: string, type: string): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  // Some browsers only follow a click on a link that is in the document.
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking at once can cancel a download the browser has not started reading yet.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
