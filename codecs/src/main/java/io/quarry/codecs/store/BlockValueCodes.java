package io.quarry.codecs.store;

import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.util.BytesRef;

/**
 * Which of its block's distinct values each event has (issue 23): for a field whose {@link
 * BlockValueCounts} say every event of the block has exactly one value and the block has more than
 * one, {@value #CODES}{@code f} holds, per event in block order (newest first), the index of its
 * value among the block's values in their ({@link BlockValueCounts}) order — a column of small
 * codes beside the counts, so a filter on one field and a count by another ({@code status>=500 |
 * stats count by clientip}) are answered per event from doc values, without decompressing the
 * block.
 *
 * <pre>
 * codes := version:byte(=1) bits:byte(1|2|4|8|16) code{events}   packed low bits first, bytes
 *          little-endian; a 16-bit code is two bytes, little-endian
 * </pre>
 *
 * A block of one value has no codes (every event's is 0); a block where some event has several
 * values has no codes and is read event by event, as is one written before the codes existed or in
 * a later grammar.
 *
 * <p>A block some events of which lack the field, each of the others having one value (an optional
 * key of JSON events, a session id in some access lines; session 33), has its values in {@link
 * BlockValueCounts}' sorted set but no counts, and its codes in {@value #PARTIAL}{@code f}: the
 * same grammar over {@code size + 1} codes, code {@code size} meaning "no value" (so even a block
 * of one value has them). The count paths, which need every event to have a value (an event without
 * one may get it from search-time extraction), never see such a block: it has no {@value
 * BlockValueCounts#COUNTS}{@code f}. Only {@link BlockColumns} reads it, for the column.
 */
public final class BlockValueCodes {
  static final String CODES = "_be.";

  /**
   * The codes of a block some events of which lack the field ({@link #writePartial}): the same
   * grammar, one more code ({@code size}) for "no value".
   */
  static final String PARTIAL = "_bp.";

  /** The grammar version of {@value #CODES} values. */
  static final byte VERSION = 1;

  private final BinaryDocValues codes;

  private BlockValueCodes(BinaryDocValues codes) {
    this.codes = codes;
  }

  /**
   * Adds a block's codes of {@code field}: {@code codes[e]} is event {@code e}'s value's index
   * among the block's {@code size} values ({@code size > 1}).
   */
  static void write(Document document, String field, int[] codes, int events, int size) {
    document.add(new BinaryDocValuesField(CODES + field, new BytesRef(pack(codes, events, size))));
  }

  /**
   * Adds the codes of {@code field} of a block some events of which lack it: {@code codes[e]} is
   * event {@code e}'s value's index among the block's {@code size} values, or {@code size} when it
   * has none.
   */
  static void writePartial(Document document, String field, int[] codes, int events, int size) {
    document.add(
        new BinaryDocValuesField(PARTIAL + field, new BytesRef(pack(codes, events, size + 1))));
  }

  private static byte[] pack(int[] codes, int events, int size) {
    int bits = bits(size);
    byte[] packed = new byte[2 + (events * bits + 7) / 8];
    packed[0] = VERSION;
    packed[1] = (byte) bits;
    for (int e = 0; e < events; e++) {
      int code = codes[e];
      if (bits == 16) {
        packed[2 + 2 * e] = (byte) code;
        packed[3 + 2 * e] = (byte) (code >>> 8);
      } else {
        int bit = e * bits;
        packed[2 + (bit >>> 3)] |= (byte) (code << (bit & 7));
      }
    }
    return packed;
  }

  /** The fewest of 1, 2, 4, 8, 16 bits that hold every index below {@code size}. */
  static int bits(int size) {
    int needed = 32 - Integer.numberOfLeadingZeros(Math.max(1, size - 1));
    return needed <= 1 ? 1 : needed <= 2 ? 2 : needed <= 4 ? 4 : needed <= 8 ? 8 : 16;
  }

  /** The codes of {@code field} in a segment of block documents (perhaps none of them has any). */
  public static BlockValueCodes open(LeafReader reader, String field) throws IOException {
    return new BlockValueCodes(reader.getBinaryDocValues(CODES + field));
  }

  /**
   * The codes of {@code field} of the segment's blocks some events of which lack it ({@value
   * #PARTIAL}): read as any codes, over the block's values and one more, the "no value" code.
   */
  static BlockValueCodes openPartial(LeafReader reader, String field) throws IOException {
    return new BlockValueCodes(reader.getBinaryDocValues(PARTIAL + field));
  }

  /**
   * Reads block document {@code doc}'s codes (increasing doc order) of its {@code events} events,
   * whose values number {@code size}, into {@code into}; false when the block has none (read its
   * events instead). A block of one value needs none: every code is 0.
   *
   * @throws CorruptIndexException when the codes do not fit the block
   */
  public boolean read(int doc, int events, int size, int[] into) throws IOException {
    if (size == 1) {
      Arrays.fill(into, 0, events, 0);
      return true;
    }
    if (!advance(doc, events, size)) {
      return false;
    }
    decode(events, into);
    return true;
  }

  /**
   * Writes the codes of the block {@link #advance} moved to, its {@code events} events, into {@code
   * into} (every event's, in one pass per code width).
   *
   * @throws CorruptIndexException when a code is past the block's values
   */
  public void decode(int events, int[] into) throws CorruptIndexException {
    if (bits == 0) {
      Arrays.fill(into, 0, events, 0);
      return;
    }
    int largest = 0; // checked once for the block: a loop per width, without a branch per code
    if (bits == 16) {
      for (int e = 0; e < events; e++) {
        into[e] = (bytes[base + 2 * e] & 0xFF) | (bytes[base + 2 * e + 1] & 0xFF) << 8;
        largest = Math.max(largest, into[e]);
      }
    } else if (bits == 8) {
      for (int e = 0; e < events; e++) {
        into[e] = bytes[base + e] & 0xFF;
        largest = Math.max(largest, into[e]);
      }
    } else {
      int mask = (1 << bits) - 1;
      for (int e = 0; e < events; e++) {
        int bit = e * bits;
        into[e] = (bytes[base + (bit >>> 3)] >>> (bit & 7)) & mask;
        largest = Math.max(largest, into[e]);
      }
    }
    if (largest >= size) {
      for (int e = 0; e < events; e++) {
        code(e); // throws for the first code past the values
      }
    }
  }

  /**
   * Moves to block document {@code doc} (increasing doc order) of {@code events} events, whose
   * values number {@code size}, for {@link #code}; false when the block has none (read its events
   * instead). A block of one value needs none: every code is 0.
   *
   * @throws CorruptIndexException when the codes do not fit the block
   */
  public boolean advance(int doc, int events, int size) throws IOException {
    this.doc = doc;
    this.size = size;
    if (size == 1) {
      bits = 0;
      return true;
    }
    if (codes == null || !codes.advanceExact(doc)) {
      return false;
    }
    BytesRef value = codes.binaryValue();
    byte[] bytes = value.bytes;
    int at = value.offset;
    if (value.length < 2 || bytes[at] != VERSION) {
      return false; // a later grammar this reader does not know: read the events
    }
    int bits = bytes[at + 1];
    if ((bits != 1 && bits != 2 && bits != 4 && bits != 8 && bits != 16)
        || value.length != 2 + (events * bits + 7) / 8
        || bits < bits(size)) {
      throw new CorruptIndexException(
          "block value codes of "
              + value.length
              + " bytes, "
              + bits
              + " bits per code, do not fit "
              + events
              + " events of "
              + size
              + " values",
          "doc " + doc);
    }
    this.bytes = bytes;
    this.base = at + 2;
    this.bits = bits;
    return true;
  }

  /**
   * Writes into {@code into} the events of the block {@link #advance} moved to whose code is {@code
   * wanted}, in order; returns how many (a filter's matching events, in one pass over the codes
   * without a branch per event; four-bit codes sixteen at a time, {@link NibbleSelect}). Entries
   * past them may be overwritten.
   *
   * @throws CorruptIndexException when a code is past the block's values
   */
  public int select(int events, boolean[] wanted, int[] into) throws CorruptIndexException {
    if (bits == 0) {
      return select(events, wanted[0], into);
    }
    if (bits == 4) { // two codes a byte, sixteen a word: the common width (a status)
      int wantedCodes = 0;
      for (int code = 0; code < size; code++) {
        wantedCodes |= wanted[code] ? 1 << code : 0;
      }
      int selected = NibbleSelect.select(bytes, base, events, size, wantedCodes, into);
      if (selected < 0) {
        for (int e = 0; e < events; e++) {
          code(e); // throws for the first code past the values
        }
        throw new CorruptIndexException("block value codes past " + size + " values", "doc " + doc);
      }
      nibbleSelects++;
      return selected;
    }
    int mask = (1 << bits) - 1;
    if (table.length <= mask) {
      table = new int[mask + 1];
      tabled = 0;
    }
    for (int code = 0; code < Math.max(size, tabled); code++) { // a code past the values: none
      table[code] = code < size && wanted[code] ? 1 : 0;
    }
    tabled = size;
    int selected = 0;
    int largest = 0;
    if (bits == 16) {
      for (int e = 0; e < events; e++) {
        int code = (bytes[base + 2 * e] & 0xFF) | (bytes[base + 2 * e + 1] & 0xFF) << 8;
        into[selected] = e;
        selected += table[code];
        largest = Math.max(largest, code);
      }
    } else if (bits == 8) {
      for (int e = 0; e < events; e++) {
        int code = bytes[base + e] & 0xFF;
        into[selected] = e;
        selected += table[code];
        largest = Math.max(largest, code);
      }
    } else {
      for (int e = 0; e < events; e++) {
        int bit = e * bits;
        int code = (bytes[base + (bit >>> 3)] >>> (bit & 7)) & mask;
        into[selected] = e;
        selected += table[code];
        largest = Math.max(largest, code);
      }
    }
    if (largest >= size) {
      for (int e = 0; e < events; e++) {
        code(e); // throws for the first code past the values
      }
    }
    return selected;
  }

  /** Every event of a block of one value, or none. */
  private static int select(int events, boolean wanted, int[] into) {
    if (!wanted) {
      return 0;
    }
    for (int e = 0; e < events; e++) {
      into[e] = e;
    }
    return events;
  }

  /**
   * The blocks whose events {@link #select} picked sixteen at a time ({@link NibbleSelect}), since
   * this reader opened (a search's counter of the path).
   */
  public long nibbleSelects() {
    return nibbleSelects;
  }

  private long nibbleSelects;

  private int[] table = new int[0]; // select's: 1 for a wanted code, 0 past the first tabled
  private int tabled;

  /**
   * Event {@code e}'s code in the block {@link #advance} moved to, decoded alone (a filter on
   * another field reads the codes of the events it keeps).
   *
   * @throws CorruptIndexException when the code is past the block's values
   */
  public int code(int e) throws CorruptIndexException {
    int code =
        switch (bits) {
          case 0 -> 0;
          case 16 -> (bytes[base + 2 * e] & 0xFF) | (bytes[base + 2 * e + 1] & 0xFF) << 8;
          case 8 -> bytes[base + e] & 0xFF;
          default -> {
            int bit = e * bits;
            yield (bytes[base + (bit >>> 3)] >>> (bit & 7)) & ((1 << bits) - 1);
          }
        };
    if (code >= size) {
      throw new CorruptIndexException(
          "block value code " + code + " of event " + e + " past " + size + " values",
          "doc " + doc);
    }
    return code;
  }

  // the block advance moved to, as CodePairCounts reads it
  int bits() {
    return bits;
  }

  int size() {
    return size;
  }

  byte[] bytes() {
    return bytes;
  }

  int base() {
    return base;
  }

  private int doc = -1;
  private int size;
  private byte[] bytes;
  private int base;
  private int bits; // 0: a block of one value, no codes
}
