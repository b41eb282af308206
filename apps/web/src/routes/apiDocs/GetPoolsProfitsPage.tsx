import { EndpointPage } from './EndpointPage';
import { ENDPOINTS } from './endpoints';

const endpoint = ENDPOINTS.find((e) => e.route === 'endpoints/get-pools-profits');

/** /endpoints/get-pools-profits */
export default function GetPoolsProfitsPage() {
  if (!endpoint) throw new Error('endpoints/get-pools-profits is missing from ENDPOINTS');
  return <EndpointPage endpoint={endpoint} />;
}
