// What account does, between the routes and consumers (which parse and answer) and data/ and domain/.
export * from './accounts';
export * from './background';
