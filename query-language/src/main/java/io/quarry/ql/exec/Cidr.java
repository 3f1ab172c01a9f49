package io.quarry.ql.exec;

import java.util.Optional;

/** An IPv4 CIDR block such as {@code 10.0.0.0/8}, for {@code clientip=10.0.0.0/8}. */
public record Cidr(long network, long mask) {

  public static Optional<Cidr> parse(String text) {
    int slash = text.indexOf('/');
    if (slash < 0) {
      return Optional.empty();
    }
    long address = parseIpv4(text.substring(0, slash));
    if (address < 0) {
      return Optional.empty();
    }
    int bits;
    try {
      bits = Integer.parseInt(text.substring(slash + 1));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
    if (bits < 0 || bits > 32) {
      return Optional.empty();
    }
    long mask = bits == 0 ? 0 : (0xFFFFFFFFL << (32 - bits)) & 0xFFFFFFFFL;
    return Optional.of(new Cidr(address & mask, mask));
  }

  public boolean contains(String ip) {
    long address = parseIpv4(ip);
    return address >= 0 && (address & mask) == network;
  }

  /** The address as an unsigned 32-bit value, or -1 when the text is not a dotted quad. */
  static long parseIpv4(String text) {
    long address = 0;
    int octets = 0;
    int value = -1;
    for (int i = 0; i <= text.length(); i++) {
      char c = i < text.length() ? text.charAt(i) : '.';
      if (c == '.') {
        if (value < 0 || value > 255 || ++octets > 4) {
          return -1;
        }
        address = (address << 8) | value;
        value = -1;
      } else if (c >= '0' && c <= '9') {
        value = (value < 0 ? 0 : value * 10) + (c - '0');
        if (value > 255) {
          return -1;
        }
      } else {
        return -1;
      }
    }
    return octets == 4 ? address : -1;
  }
}
