package io.quarry.plugins.iplocation;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.zip.GZIPInputStream;

/**
 * The bundled IPv4 → country table: one country per /16 network (see {@code SOURCES.md} beside it
 * for where it comes from and its licence). Coarse but offline and 128 KiB in memory.
 */
final class CountryTable {
  private static final String RESOURCE = "ipv4-country-by-16.bin.gz";
  private static final int ENTRIES = 65536;

  private final String[] countries = new String[ENTRIES];

  private CountryTable(byte[] table) {
    java.util.Map<String, String> interned = new java.util.HashMap<>();
    for (int i = 0; i < ENTRIES; i++) {
      if (table[2 * i] != 0) {
        String code = new String(table, 2 * i, 2, java.nio.charset.StandardCharsets.US_ASCII);
        countries[i] = interned.computeIfAbsent(code, c -> c);
      }
    }
  }

  private static final class Holder {
    static final CountryTable TABLE = load();
  }

  static CountryTable get() {
    return Holder.TABLE;
  }

  private static CountryTable load() {
    try (InputStream in = CountryTable.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from the plugin jar");
      }
      byte[] table = new GZIPInputStream(in).readAllBytes();
      if (table.length != 2 * ENTRIES) {
        throw new IllegalStateException(RESOURCE + " has " + table.length + " bytes");
      }
      return new CountryTable(table);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The country of an IPv4 address given as an int, or null. */
  String country(int address) {
    return countries[address >>> 16];
  }
}
