// An upload a server may refuse from its headers alone. An S3 server checks the signed
// Content-Length before it reads the body; when the body is larger than the socket buffers, it may
// answer 403 and close the connection while the client is still writing, so the client sees its
// write fail (EPIPE, ECONNRESET) instead of the answer. That is a refusal too. One place knows
// which failures mean it, for the blob store contract and the capture suite alike.

/** `send`'s answer, or 'closed' when the server closed the connection while the body was written. */
export async function answerOrClosed(send: () => Promise<Response>): Promise<Response | 'closed'> {
  try {
    return await send();
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code === 'EPIPE' || code === 'ECONNRESET') return 'closed';
    throw error;
  }
}
