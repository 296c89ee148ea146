/** Types of the `ascii85` package (1.0.x, MIT), which ships none: the parts used here. */
declare module 'ascii85' {
  interface Ascii85Codec {
    encode(data: string | Uint8Array, options?: { delimiter?: boolean }): Buffer;
    decode(text: string | Uint8Array): Buffer;
  }
  const codec: Ascii85Codec;
  export default codec;
}
