/**
 * Black-box end-to-end tests: they start the assembled distribution's {@code bin/quarry} as a
 * separate process on loopback and talk to it over HTTP only.
 */
package io.quarry.e2e;
