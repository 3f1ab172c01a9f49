/**
 * The plugin test kit: {@link io.quarry.plugin.testing.CommandTester} runs one command of a plugin
 * over pages exactly as a search would drive its operators (and checks the protocol and memory
 * rules), {@link io.quarry.plugin.testing.PluginTestServer} runs searches with the plugin over a
 * real index on 127.0.0.1, {@link io.quarry.plugin.testing.Pages} builds input pages from rows.
 */
package io.quarry.plugin.testing;
