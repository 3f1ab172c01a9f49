package io.quarry.plugins.iplocation;

/**
 * What is known about where an address is; any part may be null. Names are already in the language
 * {@code lang=} asked for, except that {@code country} may be null while {@code countryCode} is
 * known (the bundled table and country-only databases have codes alone), and is then named by
 * {@link PlaceNames#country}.
 */
record Location(
    String countryCode,
    String country,
    String region,
    String city,
    String continent,
    Long metroCode,
    String timezone,
    Double lat,
    Double lon) {
  static final Location UNKNOWN =
      new Location(null, null, null, null, null, null, null, null, null);

  /** A location known only by its ISO 3166-1 country code. */
  static Location countryCode(String code) {
    return code == null
        ? UNKNOWN
        : new Location(code, null, null, null, null, null, null, null, null);
  }
}
