/** Facts of the interface that several tests assert, written once, apart from the code under test. */

/** The seven compact tools of the default address, in listing order. */
export const COMPACT_TOOL_NAMES = [
  "svc_list_platforms",
  "svc_search_endpoints",
  "svc_describe_endpoint",
  "svc_execute",
  "svc_get_task",
  "svc_get_files",
  "svc_account",
];
