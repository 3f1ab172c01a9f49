package io.quarry.plugins.iplocation;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a small IPv4 MaxMind DB file (format 2.0, 24-bit records) for tests, so a City-style
 * database — the shape of GeoLite2 City, which Splunk's {@code iplocation} reads — needs no
 * download. Values: {@code String}, {@code Double}, {@code Integer} (uint32), {@code Long}
 * (uint64), {@code Map}, {@code List}. See https://maxmind.github.io/MaxMind-DB/ for the format.
 */
final class MmdbWriter {
  /** A node of the search tree; a side holds a node, a data offset (Integer), or nothing. */
  private static final class Node {
    final Object[] sides = new Object[2];
  }

  private final Node root = new Node();
  private final ByteArrayOutputStream data = new ByteArrayOutputStream();

  /** Maps {@code a.b.c.d/length} to {@code record}. */
  MmdbWriter add(String network, Map<String, Object> record) {
    String[] parts = network.split("/");
    long address = IpLocationCommand.ipv4(parts[0]);
    int length = Integer.parseInt(parts[1]);
    int offset = data.size();
    encode(record, data);
    Node node = root;
    for (int bit = 0; bit < length; bit++) {
      int side = (int) (address >>> (31 - bit)) & 1;
      if (bit == length - 1) {
        node.sides[side] = offset;
      } else {
        if (!(node.sides[side] instanceof Node)) {
          node.sides[side] = new Node();
        }
        node = (Node) node.sides[side];
      }
    }
    return this;
  }

  void write(Path file) throws IOException {
    List<Node> nodes = new ArrayList<>();
    Map<Node, Integer> numbers = new LinkedHashMap<>();
    nodes.add(root);
    numbers.put(root, 0);
    for (int i = 0; i < nodes.size(); i++) {
      for (Object side : nodes.get(i).sides) {
        if (side instanceof Node child) {
          numbers.put(child, nodes.size());
          nodes.add(child);
        }
      }
    }
    int nodeCount = nodes.size();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Node node : nodes) {
      for (Object side : node.sides) {
        long record =
            switch (side) {
              case Node child -> numbers.get(child);
              case Integer offset -> nodeCount + 16L + offset;
              case null -> nodeCount; // no data
              default -> throw new IllegalStateException();
            };
        out.write((int) (record >>> 16));
        out.write((int) (record >>> 8));
        out.write((int) record);
      }
    }
    out.write(new byte[16]); // the data section separator
    data.writeTo(out);
    out.write(new byte[] {(byte) 0xAB, (byte) 0xCD, (byte) 0xEF});
    out.write("MaxMind.com".getBytes(StandardCharsets.US_ASCII));
    Map<String, Object> metadata = new LinkedHashMap<>();
    metadata.put("node_count", nodeCount);
    metadata.put("record_size", 24);
    metadata.put("ip_version", 4);
    metadata.put("database_type", "Quarry-Test-City");
    metadata.put("languages", List.of("en", "de"));
    metadata.put("binary_format_major_version", 2);
    metadata.put("binary_format_minor_version", 0);
    metadata.put("build_epoch", 1767225600L);
    metadata.put("description", Map.of("en", "iplocation test database"));
    encode(metadata, out);
    Files.write(file, out.toByteArray());
  }

  private static void encode(Object value, ByteArrayOutputStream out) {
    switch (value) {
      case String text -> {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        control(2, bytes.length, out);
        out.writeBytes(bytes);
      }
      case Double number -> {
        control(3, 8, out);
        long bits = Double.doubleToLongBits(number);
        for (int shift = 56; shift >= 0; shift -= 8) {
          out.write((int) (bits >>> shift));
        }
      }
      case Integer number -> {
        control(6, 4, out);
        for (int shift = 24; shift >= 0; shift -= 8) {
          out.write(number >>> shift);
        }
      }
      case Long number -> {
        control(9, 8, out);
        for (int shift = 56; shift >= 0; shift -= 8) {
          out.write((int) (number >>> shift));
        }
      }
      case Map<?, ?> map -> {
        control(7, map.size(), out);
        map.forEach(
            (key, item) -> {
              encode(key, out);
              encode(item, out);
            });
      }
      case List<?> list -> {
        control(11, list.size(), out);
        list.forEach(item -> encode(item, out));
      }
      default -> throw new IllegalArgumentException("cannot encode " + value);
    }
  }

  /** A control byte (type in the top 3 bits, or 0 and an extended type byte) and the size. */
  private static void control(int type, int size, ByteArrayOutputStream out) {
    if (size >= 29) {
      throw new IllegalArgumentException("sizes of 29 and more are not needed here: " + size);
    }
    if (type <= 7) {
      out.write(type << 5 | size);
    } else {
      out.write(size);
      out.write(type - 7);
    }
  }
}
