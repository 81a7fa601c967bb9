// A list page's items_json, written once. A page of 50 is 15-20 KB of JSON; made the generated
// way, its bytes were copied three times before grpc-js framed them (the joined JSON encoded to a
// buffer, ts-proto's `finish()` copying that into the message, the generated `responseSerialize`
// copying the message). Each copy is memory outside V8's heap that only a collection frees, and on
// a page read those copies are what set off most of the process's full collections
// (docs/performance.md, "A page's bytes, copied once less"). Here the JSON is encoded into a buffer
// with room in front of it, and the reply's other fields and the items_json key are written into
// that room: the message is the JSON's own buffer, and grpc-js's framing is the only copy left.

/**
 * Room in front of the JSON for the reply's other fields and the key: a cursor is ~100 bytes, a
 * deal page's pipeline summary a few hundred. A reply that does not fit is encoded the generated way.
 */
const ROOM = 1024;

/** The buffers jsonArray made, whose room is theirs alone to write (never a pooled slice). */
const roomy = new WeakSet<Uint8Array>();

/** `[a,b,…]` of JSON texts, as UTF-8 bytes, in a buffer of its own with ROOM before it. */
export function jsonArray(items: readonly string[]): Buffer {
  const json = `[${items.join(',')}]`;
  const length = Buffer.byteLength(json);
  // allocUnsafeSlow: a buffer of its own, so the room before the JSON is nobody else's bytes.
  const whole = Buffer.allocUnsafeSlow(ROOM + length);
  whole.write(json, ROOM);
  const bytes = whole.subarray(ROOM);
  roomy.add(bytes);
  return bytes;
}

/** How many bytes protobuf's varint of a length takes. */
function varintLength(value: number): number {
  let bytes = 1;
  for (let rest = value; rest > 0x7f; rest >>>= 7) bytes += 1;
  return bytes;
}

/** Writes a length as protobuf's varint at `offset`. */
function writeVarint(target: Buffer, offset: number, value: number): void {
  let at = offset;
  let rest = value;
  while (rest > 0x7f) {
    target[at++] = (rest & 0x7f) | 0x80;
    rest >>>= 7;
  }
  target[at] = rest;
}

type Serialize<T> = (value: T) => Buffer;
type Deserialize<T> = (bytes: Buffer) => T;
type PageReply = { itemsJson?: Uint8Array };

/**
 * The key of the reply's items_json field (field number and wire type), as its generated encoder
 * writes it: the encoding of an otherwise empty reply whose items_json is one byte is the key, the
 * length 1 and that byte. Undefined for a reply type without the field (the encoder ignores it).
 */
function itemsJsonKey<T>(serialize: Serialize<T>, deserialize: Deserialize<T>): Buffer | undefined {
  const probe = serialize({ ...deserialize(Buffer.alloc(0)), itemsJson: Uint8Array.of(0x2a) });
  const [length, byte] = [probe.at(-2), probe.at(-1)];
  return probe.length >= 3 && length === 1 && byte === 0x2a ? Buffer.from(probe.subarray(0, -2)) : undefined;
}

/**
 * A method's response serializer that writes a page reply around its items_json when jsonArray
 * made it, and is the generated one otherwise (other replies, or a page whose other fields do not
 * fit the room). The fields come before items_json, as the generated encoder orders them when
 * items_json has the highest number; a decoder takes fields in any order.
 */
export function pageReplySerializer<T>(serialize: Serialize<T>, deserialize: Deserialize<T>): Serialize<T> {
  const key = itemsJsonKey(serialize, deserialize);
  if (!key) return serialize;
  return (value) => {
    const json = (value as PageReply).itemsJson;
    if (!json || !roomy.has(json)) return serialize(value);
    const rest = serialize({ ...value, itemsJson: undefined });
    const start = json.byteOffset - rest.length - key.length - varintLength(json.byteLength);
    if (start < 0) return serialize(value);
    // Written once: a second serialization of the same reply must not find its room taken.
    roomy.delete(json);
    const message = Buffer.from(json.buffer, start, json.byteOffset + json.byteLength - start);
    rest.copy(message, 0);
    key.copy(message, rest.length);
    writeVarint(message, rest.length + key.length, json.byteLength);
    return message;
  };
}
