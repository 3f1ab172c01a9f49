package io.quarry.plugins.iplocation;

import com.maxmind.db.Reader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Lookups in a MaxMind DB file ({@code .mmdb}): GeoLite2/GeoIP2 City and Country databases ({@code
 * country}, {@code subdivisions[0]}, {@code city}, {@code continent}, each with {@code iso_code} or
 * {@code code} and {@code names} by language; {@code location}: latitude, longitude, metro code,
 * time zone) and the flat country databases of ip-location-db ({@code country_code} alone). Readers
 * are shared by every search and reopened when the file changes.
 */
final class MaxMindLookup {
  private record Opened(Reader reader, long modified) {}

  private static final Map<Path, Opened> READERS = new ConcurrentHashMap<>();

  private final Reader reader;

  private MaxMindLookup(Reader reader) {
    this.reader = reader;
  }

  /**
   * @throws IllegalArgumentException when the file is missing or not a MaxMind DB
   */
  static MaxMindLookup open(String database) {
    Path path = Path.of(database).toAbsolutePath().normalize();
    if (!Files.isRegularFile(path)) {
      throw new IllegalArgumentException("database " + path + " does not exist");
    }
    try {
      long modified = Files.getLastModifiedTime(path).toMillis();
      Opened opened =
          READERS.compute(
              path,
              (p, old) -> {
                if (old != null && old.modified() == modified) {
                  return old;
                }
                try {
                  return new Opened(new Reader(p.toFile()), modified);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
      return new MaxMindLookup(opened.reader());
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(
          "database " + path + " is not a readable MaxMind DB file: " + e.getMessage(), e);
    }
  }

  /**
   * Where {@code address} is, with names as {@code names} asks; {@link Location#UNKNOWN} if not
   * known.
   */
  Location lookup(InetAddress address, PlaceNames names) {
    Map<String, Object> record;
    try {
      record = reader.get(address, Map.class);
    } catch (IOException e) {
      throw new UncheckedIOException("reading the MaxMind database failed", e);
    }
    if (record == null) {
      return Location.UNKNOWN;
    }
    String countryCode = text(record.get("country_code"));
    if (countryCode == null) {
      countryCode = text(path(record, "country", "iso_code"));
    }
    String country =
        names.codes() ? countryCode : names.pick(map(path(record, "country", "names")));
    String region = null;
    if (record.get("subdivisions") instanceof List<?> subdivisions
        && !subdivisions.isEmpty()
        && subdivisions.get(0) instanceof Map<?, ?> first) {
      region = names.codes() ? text(first.get("iso_code")) : names.pick(map(first.get("names")));
    }
    String city = names.pick(map(path(record, "city", "names")));
    String continent =
        names.codes()
            ? text(path(record, "continent", "code"))
            : names.pick(map(path(record, "continent", "names")));
    Long metroCode =
        path(record, "location", "metro_code") instanceof Number n ? n.longValue() : null;
    String timezone = text(path(record, "location", "time_zone"));
    Double lat = number(path(record, "location", "latitude"));
    Double lon = number(path(record, "location", "longitude"));
    return new Location(
        countryCode, country, region, city, continent, metroCode, timezone, lat, lon);
  }

  @SuppressWarnings("unchecked")
  private static Object path(Map<String, Object> record, String... keys) {
    Object at = record;
    for (String key : keys) {
      if (!(at instanceof Map<?, ?> map)) {
        return null;
      }
      at = ((Map<String, Object>) map).get(key);
    }
    return at;
  }

  private static Map<?, ?> map(Object value) {
    return value instanceof Map<?, ?> map ? map : null;
  }

  private static String text(Object value) {
    return value == null ? null : value.toString();
  }

  private static Double number(Object value) {
    return value instanceof Number n ? n.doubleValue() : null;
  }
}
