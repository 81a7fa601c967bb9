// piexifjs ships no types: the few calls the survey generator makes.
declare module 'piexifjs' {
  type Rational = [number, number];
  type IfdValue = number | string | Rational | Rational[] | number[];
  export interface ExifObject {
    '0th'?: Record<number, IfdValue>;
    Exif?: Record<number, IfdValue>;
    GPS?: Record<number, IfdValue>;
  }
  const piexif: {
    dump(exif: ExifObject): string;
    insert(exifBytes: string, jpegBinary: string): string;
    ImageIFD: Record<string, number>;
    ExifIFD: Record<string, number>;
    GPSIFD: Record<string, number>;
    TAGS: Record<'Image' | 'Exif' | 'GPS', Record<number, { name: string; type: string }>>;
  };
  export default piexif;
}
