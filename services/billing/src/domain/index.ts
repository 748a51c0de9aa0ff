// The rules of billing as plain functions and types (ledger rules (balance never below zero), point packages, membership transitions and renewals).
// Imports nothing from http/, events/ or data/. Filled by the billing task.
export {};
