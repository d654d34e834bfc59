import { boot } from '../../kit/boot.tsx'
import { EditTool } from '../edit/EditTool.tsx'

boot(() => <EditTool />)
