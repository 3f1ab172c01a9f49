package io.quarry.plugins.iplocation;

/** What is known about where an address is; any part may be null. */
record Location(String country, String region, String city, Double lat, Double lon) {
  static final Location UNKNOWN = new Location(null, null, null, null, null);

  static Location country(String country) {
    return country == null ? UNKNOWN : new Location(country, null, null, null, null);
  }
}
