/**
 * The {@code iplocation} plugin, Splunk's command: IP address → {@code Country} from a bundled
 * per-/16 table ({@link io.quarry.plugins.iplocation.CountryTable}), or {@code City}, {@code
 * Country}, {@code Region}, {@code lat}, {@code lon} (and {@code Continent}, {@code MetroCode},
 * {@code Timezone}) from a MaxMind-format database the user provides ({@link
 * io.quarry.plugins.iplocation.MaxMindLookup}, over MaxMind's reader, which lives only in this
 * plugin's class loader).
 */
package io.quarry.plugins.iplocation;
