// The route table imports the page from here.
export { PointsPage } from './components/points-page';
