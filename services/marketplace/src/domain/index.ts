// The rules of marketplace as plain functions and types (price plans, fees and net amounts, licence expiry).
// Imports nothing from http/, events/ or data/. Filled by the marketplace task.
export {};
