/**
 * The plugin SPI: {@link io.quarry.plugin.api.QuarryPlugin} (what a plugin contributes) and {@link
 * io.quarry.plugin.api.SpiVersion}. Commands and their operators are in {@code command}, typed
 * columnar pages in {@code data}. This artifact depends on nothing but the JDK; plugins compile
 * against it with Maven's {@code provided} scope.
 */
package io.quarry.plugin.api;
