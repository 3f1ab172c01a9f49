/**
 * Search jobs: searches that outlive the request that started them. A job runs on the job pool,
 * keeps its typed result pages, progress and costs, can be finalized or cancelled while it runs,
 * and expires a while after it is last looked at. The native API ({@code /api/v1/jobs}) and
 * Splunk's ({@code /services/search/jobs}) both present these jobs.
 */
package io.quarry.server.jobs;
