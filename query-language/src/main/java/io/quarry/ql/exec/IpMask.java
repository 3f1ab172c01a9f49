package io.quarry.ql.exec;

/**
 * {@code ipmask(mask, ip)}: the IPv4 address {@code ip} ANDed bit by bit with the IPv4 address
 * {@code mask}, written as a dotted quad ({@code ipmask("255.255.255.0", "10.20.30.120")} is {@code
 * 10.20.30.0}, the Search Reference's example). Either argument not a dotted quad of 0-255 octets
 * (an IPv6 address, a multivalue, text) makes it null — the reference asks for valid IPv4 addresses
 * and names no answer otherwise. The mask is read once when it is fixed.
 */
final class IpMask {
  private IpMask() {}

  /** {@code ipmask(mask, ip)} for each {@code ip}, the mask read once. */
  static BoundFunction ofMask(Object mask) {
    long bits = Cidr.parseIpv4(Values.toText(mask));
    return ip -> bits < 0 ? null : apply(bits, ip);
  }

  /** {@code ipmask(mask, ip)} for each {@code mask}, the address read once. */
  static BoundFunction ofAddress(Object ip) {
    long address = ip instanceof java.util.List<?> ? -1 : Cidr.parseIpv4(Values.toText(ip));
    return mask -> address < 0 ? null : apply(address, mask);
  }

  private static Object apply(long fixed, Object other) {
    if (other instanceof java.util.List<?>) {
      return null;
    }
    long address = Cidr.parseIpv4(Values.toText(other));
    if (address < 0) {
      return null;
    }
    long masked = fixed & address;
    return (masked >>> 24)
        + "."
        + ((masked >>> 16) & 255)
        + "."
        + ((masked >>> 8) & 255)
        + "."
        + (masked & 255);
  }
}
