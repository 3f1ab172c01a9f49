/**
 * A Logback appender that ships an application's own log to Quarry through HEC ({@link
 * io.quarry.client.logback.QuarryAppender}). Needs {@code logback-classic} on the application's
 * class path (an optional dependency of the client).
 */
package io.quarry.client.logback;
