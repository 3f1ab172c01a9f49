/**
 * The {@code iplocation} plugin: IP address → country from a bundled per-/16 table ({@link
 * io.quarry.plugins.iplocation.CountryTable}), or country, city, region, latitude and longitude
 * from a MaxMind-format database the user provides ({@link
 * io.quarry.plugins.iplocation.MaxMindLookup}, over MaxMind's reader, which lives only in this
 * plugin's class loader).
 */
package io.quarry.plugins.iplocation;
