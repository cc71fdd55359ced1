/**
 * Shared helpers for tests (docs/testing.md "The test kit"). Server-side helpers touch this
 * test file's real database; nothing here mocks the app.
 */
export { createTestApiToken, createTestOperator, sessionCookieFor, type TestOperator } from "./auth";
export { callRoute, cookiesOf, makeRequest, readJson, routeArgs, toastOf, TEST_ORIGIN, type RequestOptions, type RouteAnswer } from "./request";
export { apiArgs, errorBody, testApiToken, withApiAuth } from "./api";
export { fullPath, remixHandler, routeTable } from "./remix";
