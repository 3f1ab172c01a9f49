/**
 * The {@code urlparse} plugin: a streaming command over typed pages, the small example of the SPI
 * ({@link io.quarry.plugins.urlparse.UrlParseCommand} declares and binds, {@link
 * io.quarry.plugins.urlparse.Url} parses).
 */
package io.quarry.plugins.urlparse;
